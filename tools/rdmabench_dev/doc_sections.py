"""Generated sections of a Markdown page: the text between `<!-- generated: NAME -->` and
`<!-- end: NAME -->`, replaced by what the code says (README's exit codes, docs/json.md's
tables). A host test holds every page to its sections."""
import re


class MissingSection(KeyError):
    pass


def render(page, parts, page_name="the page"):
    """`page` with each generated section replaced by its part."""
    for name, text in parts.items():
        pattern = re.compile(rf"(<!-- generated: {re.escape(name)} -->\n).*?(<!-- end: {re.escape(name)} -->)", re.S)
        if not pattern.search(page):
            raise MissingSection(f"{page_name} has no generated section '{name}'")
        page = pattern.sub(lambda m: m.group(1) + text + "\n" + m.group(2), page)
    return page
