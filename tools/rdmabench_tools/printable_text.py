"""A file's or a peer's text made fit for a message: printable ASCII, bounded.

What a results file says (a kernel release, a device name) is input like any other: before it
reaches an error or a table it is escaped (a control character, an escape sequence or a
character outside ASCII becomes its \\x, \\u escape) and cut to `limit` characters, "..." where
cut, as core/printable_text.h's peer_excerpt does for the engine."""


def excerpt(text, limit=60):
    """`text` (any value: str() of it) as printable ASCII of at most `limit` characters plus
    "..." where cut; the cut never splits an escape."""
    out, used = [], 0
    for ch in str(text):
        shown = ch if " " <= ch <= "~" and ch != "\\" else ch.encode("unicode_escape").decode("ascii")
        if ch == "\\":
            shown = "\\\\"
        if used + len(shown) > limit:
            out.append("...")
            break
        out.append(shown)
        used += len(shown)
    return "".join(out)
