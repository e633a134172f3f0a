#!/usr/bin/env python3
"""Writes raw little-endian values for qnn-run --input.

Usage: mkbin.py TYPE V0 V1 ...   (TYPE: i8 ui8 i16 i32 i64 f32)
       mkbin.py TYPE range:START:STOP   (START..STOP-1)
"""
import struct
import sys

FORMATS = {"i8": "b", "ui8": "B", "i16": "h", "i32": "i", "i64": "q",
           "f32": "f"}
kind = sys.argv[1]
values = []
for arg in sys.argv[2:]:
    if arg.startswith("range:"):
        _, start, stop = arg.split(":")
        values.extend(range(int(start), int(stop)))
    elif kind == "f32":
        values.append(float(arg))
    else:
        values.append(int(arg))
sys.stdout.buffer.write(struct.pack("<%d%s" % (len(values), FORMATS[kind]),
                                    *values))
