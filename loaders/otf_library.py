"""ctypes binding to the Open Trace Format library (OTF 1.12, VampirTrace's format; Debian
package ``libopen-trace-format1``): the reader and writer calls cosydb uses, with the
record numbers and handler signatures of ``OTF_Definitions.h`` and ``OTF_HandlerArray.h``."""

from __future__ import annotations

import ctypes
import functools
import os
from ctypes import POINTER, c_char_p, c_int, c_uint32, c_uint64, c_void_p

#: The shared library; COSYDB_OTF_LIBRARY names another one.
LIBRARY = "libopen-trace-format.so.1"
INSTALL = "install the OTF library (Debian: apt-get install libopen-trace-format1)"

READ_ERROR = 2**64 - 1  # OTF_READ_ERROR

# record numbers (OTF_Definitions.h)
DEFTIMERRESOLUTION, DEFPROCESS, DEFPROCESSGROUP, DEFFUNCTION, DEFFUNCTIONGROUP = 13, 14, 15, 16, 17
DEFCOUNTER, DEFCOLLOP, DEFCREATOR, DEFFILE = 18, 20, 24, 25
COUNTER, ENTER, COLLOP, RECEIVE, SEND, LEAVE = 1, 2, 5, 10, 11, 12
BEGINCOLLOP, ENDCOLLOP = 51, 52
BEGINPROCESS, ENDPROCESS, FILEOPERATION, BEGINFILEOP, ENDFILEOP = 35, 36, 42, 53, 54

_KV = c_void_p  # OTF_KeyValueList*, never read


def _handler(*args):
    return ctypes.CFUNCTYPE(c_int, c_void_p, *args, _KV)


#: handler prototypes: the arguments after userData, before the key-value list
HANDLERS = {
    DEFTIMERRESOLUTION: _handler(c_uint32, c_uint64),
    DEFPROCESS: _handler(c_uint32, c_uint32, c_char_p, c_uint32),
    DEFPROCESSGROUP: _handler(c_uint32, c_uint32, c_char_p, c_uint32, POINTER(c_uint32)),
    DEFFUNCTION: _handler(c_uint32, c_uint32, c_char_p, c_uint32, c_uint32),
    DEFFUNCTIONGROUP: _handler(c_uint32, c_uint32, c_char_p),
    DEFCOUNTER: _handler(c_uint32, c_uint32, c_char_p, c_uint32, c_uint32, c_char_p),
    DEFCOLLOP: _handler(c_uint32, c_uint32, c_char_p, c_uint32),
    DEFCREATOR: _handler(c_uint32, c_char_p),
    DEFFILE: _handler(c_uint32, c_uint32, c_char_p, c_uint32),
    ENTER: _handler(c_uint64, c_uint32, c_uint32, c_uint32),
    LEAVE: _handler(c_uint64, c_uint32, c_uint32, c_uint32),
    SEND: _handler(c_uint64, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32),
    RECEIVE: _handler(c_uint64, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32),
    COUNTER: _handler(c_uint64, c_uint32, c_uint32, c_uint64),
    COLLOP: _handler(c_uint64, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint64, c_uint32),
    BEGINCOLLOP: _handler(c_uint64, c_uint32, c_uint32, c_uint64, c_uint32, c_uint32, c_uint64, c_uint64, c_uint32),
    ENDCOLLOP: _handler(c_uint64, c_uint32, c_uint64),
    FILEOPERATION: _handler(c_uint64, c_uint32, c_uint32, c_uint64, c_uint32, c_uint64, c_uint64, c_uint32),
    BEGINFILEOP: _handler(c_uint64, c_uint32, c_uint64, c_uint32),
    ENDFILEOP: _handler(c_uint64, c_uint32, c_uint32, c_uint64, c_uint64, c_uint32, c_uint64, c_uint32),
}


class LibraryMissing(Exception):
    """The OTF library cannot be loaded."""


_SIGNATURES = {
    # (restype, argtypes)
    "OTF_FileManager_open": (c_void_p, [c_uint32]),
    "OTF_FileManager_close": (None, [c_void_p]),
    "OTF_Reader_open": (c_void_p, [c_char_p, c_void_p]),
    "OTF_Reader_close": (c_int, [c_void_p]),
    "OTF_Reader_readDefinitions": (c_uint64, [c_void_p, c_void_p]),
    "OTF_Reader_readEvents": (c_uint64, [c_void_p, c_void_p]),
    "OTF_MasterControl_new": (c_void_p, [c_void_p]),
    "OTF_MasterControl_read": (c_int, [c_void_p, c_char_p]),
    "OTF_MasterControl_mapReverse": (c_uint32, [c_void_p, c_uint32]),
    "OTF_MasterControl_close": (None, [c_void_p]),
    "OTF_HandlerArray_open": (c_void_p, []),
    "OTF_HandlerArray_close": (c_int, [c_void_p]),
    "OTF_HandlerArray_setHandler": (c_int, [c_void_p, c_void_p, c_uint32]),
    "OTF_Writer_open": (c_void_p, [c_char_p, c_uint32, c_void_p]),
    "OTF_Writer_close": (c_int, [c_void_p]),
    "OTF_Writer_setCompression": (c_int, [c_void_p, c_uint32]),
    "OTF_Writer_assignProcess": (c_uint32, [c_void_p, c_uint32, c_uint32]),
    "OTF_Writer_writeDefTimerResolution": (c_int, [c_void_p, c_uint32, c_uint64]),
    "OTF_Writer_writeDefCreator": (c_int, [c_void_p, c_uint32, c_char_p]),
    "OTF_Writer_writeDefProcess": (c_int, [c_void_p, c_uint32, c_uint32, c_char_p, c_uint32]),
    "OTF_Writer_writeDefProcessGroup": (
        c_int,
        [c_void_p, c_uint32, c_uint32, c_char_p, c_uint32, POINTER(c_uint32)],
    ),
    "OTF_Writer_writeDefFunctionGroup": (c_int, [c_void_p, c_uint32, c_uint32, c_char_p]),
    "OTF_Writer_writeDefFunction": (c_int, [c_void_p, c_uint32, c_uint32, c_char_p, c_uint32, c_uint32]),
    "OTF_Writer_writeDefCollectiveOperation": (c_int, [c_void_p, c_uint32, c_uint32, c_char_p, c_uint32]),
    "OTF_Writer_writeDefCounter": (c_int, [c_void_p, c_uint32, c_uint32, c_char_p, c_uint32, c_uint32, c_char_p]),
    "OTF_Writer_writeCounter": (c_int, [c_void_p, c_uint64, c_uint32, c_uint32, c_uint64]),
    "OTF_Writer_writeDefFile": (c_int, [c_void_p, c_uint32, c_uint32, c_char_p, c_uint32]),
    "OTF_Writer_writeFileOperation": (
        c_int,
        [c_void_p, c_uint64, c_uint32, c_uint32, c_uint64, c_uint32, c_uint64, c_uint64, c_uint32],
    ),
    "OTF_Writer_writeBeginFileOperation": (c_int, [c_void_p, c_uint64, c_uint32, c_uint64, c_uint32]),
    "OTF_Writer_writeEndFileOperation": (
        c_int,
        [c_void_p, c_uint64, c_uint32, c_uint32, c_uint64, c_uint64, c_uint32, c_uint64, c_uint32],
    ),
    "OTF_Writer_writeEnter": (c_int, [c_void_p, c_uint64, c_uint32, c_uint32, c_uint32]),
    "OTF_Writer_writeLeave": (c_int, [c_void_p, c_uint64, c_uint32, c_uint32, c_uint32]),
    "OTF_Writer_writeSendMsg": (
        c_int,
        [c_void_p, c_uint64, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32],
    ),
    "OTF_Writer_writeRecvMsg": (
        c_int,
        [c_void_p, c_uint64, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32],
    ),
    "OTF_Writer_writeCollectiveOperation": (
        c_int,
        [c_void_p, c_uint64, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint32, c_uint64, c_uint32],
    ),
    "OTF_Writer_writeBeginCollectiveOperation": (
        c_int,
        [c_void_p, c_uint64, c_uint32, c_uint32, c_uint64, c_uint32, c_uint32, c_uint64, c_uint64, c_uint32],
    ),
    "OTF_Writer_writeEndCollectiveOperation": (c_int, [c_void_p, c_uint64, c_uint32, c_uint64]),
}


@functools.cache
def library() -> ctypes.CDLL:
    """The OTF library with the signatures cosydb calls; LibraryMissing names what to install."""
    name = os.environ.get("COSYDB_OTF_LIBRARY", LIBRARY)
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        raise LibraryMissing(f"cannot load {name}: {INSTALL}") from None
    for function, (restype, argtypes) in _SIGNATURES.items():
        f = getattr(lib, function)
        f.restype, f.argtypes = restype, argtypes
    return lib
