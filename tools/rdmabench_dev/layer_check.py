"""The build's check of its layers (meson.build runs it when it configures, and fails there):
each layer's files include only from their own folders and from the folders of the layers the
layer names itself. A layer's include folder must hold every layer below it (a named layer's
headers include theirs), so the compiler alone would let a file reach past the layers it names;
this check does not.

Usage: tools/lib/run-module rdmabench_dev.layer_check ROOT LAYER:FOLDER[,FOLDER]:USED[,USED] ...
Exit status: 0 every include allowed; 13 a file includes from a layer its own does not name
(each printed); 2 bad arguments."""
import re
import sys
from pathlib import Path

from rdmabench_tools import exit_codes

INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z_]+)/', re.M)


def parse_layers(entries):
    """{layer: (folders, named layers)} from 'name:folder,folder:used,used' entries."""
    layers = {}
    for entry in entries:
        parts = entry.split(":")
        if len(parts) != 3 or not parts[0] or not parts[1]:
            raise ValueError(f"not LAYER:FOLDERS:USED: {entry!r}")
        layers[parts[0]] = (parts[1].split(","), [u for u in parts[2].split(",") if u])
    for name, (_, used) in layers.items():
        unknown = [u for u in used if u not in layers]
        if unknown:
            raise ValueError(f"layer {name} names unknown layers {unknown}")
    return layers


def violations(root, layers):
    """'FILE includes LAYER/...: LAYER2 names only ...' for every include that reaches past the
    layers its own layer names."""
    layer_of_folder = {Path(f).name: name for name, (folders, _) in layers.items() for f in folders}
    found = []
    for name, (folders, used) in layers.items():
        allowed = {name, *used}
        for folder in folders:
            for path in sorted(Path(root, folder).glob("*")):
                if path.suffix not in (".h", ".cpp"):
                    continue
                for included in INCLUDE.findall(path.read_text(errors="replace")):
                    target = layer_of_folder.get(included)
                    if target is not None and target not in allowed:
                        found.append(f"{Path(folder, path.name)} includes {included}/...: layer "
                                     f"{name} names only {', '.join(used) or 'none'}")
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return exit_codes.USAGE
    try:
        layers = parse_layers(argv[1:])
    except ValueError as e:
        print(f"layer_check: {e}", file=sys.stderr)
        return exit_codes.USAGE
    found = violations(argv[0], layers)
    for line in found:
        print(line)
    return exit_codes.INVALID_FILE if found else exit_codes.OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
