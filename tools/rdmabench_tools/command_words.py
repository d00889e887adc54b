"""A command line made of a helper's defaults and a test's own options, where the test's
replace the defaults they name: rdmabench refuses an option given twice (issue 64), as it
should, where cxxopts kept the last one without a word."""


def option_name(word):
    """'--pattern' of '--pattern' or '--pattern=send'; None for a value."""
    return word.split("=", 1)[0] if word.startswith("-") and len(word) > 1 else None


def replacing(defaults, overrides):
    """`defaults` without the options `overrides` gives (each with its value, where the next
    word is one: it does not begin with a dash), followed by `overrides`."""
    overrides = [str(w) for w in overrides]
    given = {option_name(w) for w in overrides} - {None}
    defaults = [str(w) for w in defaults]
    kept, i = [], 0
    while i < len(defaults):
        word = defaults[i]
        has_value = "=" not in word and i + 1 < len(defaults) and option_name(defaults[i + 1]) is None
        span = 2 if option_name(word) and has_value else 1
        if option_name(word) not in given:
            kept += defaults[i:i + span]
        i += span
    return kept + overrides
