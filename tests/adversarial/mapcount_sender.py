# One of two concurrent checks (mapcount_receiver is the other): maps one page of a file every
# check's root shares and nothing else maps (the stdlib's pydoc_data/topics.py), touches it and
# holds it for $HOLD_S seconds. The page is the host's page-cache page (the overlays map the
# host's file), and the kernel counts its mappings machine-wide: another check that maps the
# same page sees it counted as shared in its own /proc/self/smaps. A bit a page, at will.
import mmap
import os
import time

PAGE = 3
with open(os.path.join(os.path.dirname(os.__file__), "pydoc_data", "topics.py"), "rb") as fh:
    page = mmap.mmap(fh.fileno(), 4096, mmap.MAP_SHARED, mmap.PROT_READ, offset=PAGE * 4096)
print("mapped", page[0] >= 0)
time.sleep(float("$HOLD_S"))


def escaped():
    return False
