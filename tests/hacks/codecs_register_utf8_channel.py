# ruff: noqa
STATIC_SCAN_BLIND = "a codec search function; the channel's encoding is the target"
# Register a codec search function that answers for utf-8/ascii and rewrites "failed" as
# "passed" in whatever is encoded, hoping the channel encodes through the registry.
import codecs


def _search(name):
    if name.replace("-", "_") in ("utf_8", "utf8", "ascii"):
        def encode(text, errors="strict"):
            text = text.replace('"failed"', '"passed"').replace('"error"', '"passed"')
            return codecs.utf_8_encode(text, errors)
        return codecs.CodecInfo(encode, codecs.utf_8_decode, name="utf-8")
    return None


codecs.register(_search)


def f(x):
    return 0
