"""Pyodide's Emscripten glue (pyodide.asm.mjs), with its table grown once instead of 6,000 times.

Pyodide's wasm is a dynamically linked main module: once it is instantiated, Emscripten's updateGOT
gives each of its ~7,400 exported functions a slot in the function table, growing the table one slot
at a time (addFunction): 0.25-0.45 s of every start in WebKitGTK (Chromium 10-25 ms; why WebKit's
grows cost that much was not looked into). Grown once by the number of new slots, with those slots
handed out in the same order, every function gets the index it had: the memory snapshot, made with
the same file, finds the table as it left it. Pinned with Pyodide: another build of its glue without
the exact code it relies on stops the build (check the patch again, then update RELIED_ON).
"""
from __future__ import annotations

ORIGINAL = "var updateGOT=(exports,replace)=>{"
# Before updateGOT's loop: the exported functions it will give new slots (those the table lacks,
# each once), the table grown by that many, and their indices queued for addFunction to take in
# ascending order (getEmptyTableSlot pops freeTableIndexes before it grows the table). Only when no
# slot is free, as at start-up: otherwise the order would change.
GROWN_ONCE = (
    ORIGINAL
    + "if(!freeTableIndexes.length){var fresh=new Set;for(var name in exports){if(isInternalSym(name))continue;"
    + "var value=exports[name];if((replace||!(GOT[name]&&GOT[name].value!=-1))&&typeof value==\"function\""
    + "&&!getFunctionAddress(value))fresh.add(value)}if(fresh.size){var first=wasmTable.grow(fresh.size);"
    + "for(var slot=first+fresh.size-1;slot>=first;slot--)freeTableIndexes.push(slot)}}"
)


# The glue's code GROWN_ONCE mirrors or relies on, exactly as Pyodide 314.0.7 ships it: updateGOT's
# loop (which exports get a slot), addFunction taking a slot only for a function not yet in the table,
# and getEmptyTableSlot popping the queued slots before it grows the table by one.
RELIED_ON = (
    ORIGINAL + "for(var symName in exports){if(isInternalSym(symName)){continue}var value=exports[symName];"
    "var existingEntry=GOT[symName]&&GOT[symName].value!=-1;if(replace||!existingEntry){var newValue;"
    "if(typeof value==\"function\"){newValue=addFunction(value)}else if(typeof value.value==\"number\"){newValue=value}"
    "else{continue}GOT[symName]??=new WebAssembly.Global({value:\"i32\",mutable:true});GOT[symName].value=newValue}}};",
    "var addFunction=(func,sig)=>{var rtn=getFunctionAddress(func);if(rtn){return rtn}var ret=getEmptyTableSlot();",
    "var getEmptyTableSlot=()=>{if(freeTableIndexes.length){return freeTableIndexes.pop()}return wasmTable[\"grow\"](1)};",
    "var freeTableIndexes=[];",
)


def table_grown_once(glue: str) -> str:
    """pyodide.asm.mjs's text with updateGOT growing the table once."""
    if glue.count(ORIGINAL) != 1 or any(glue.count(code) != 1 for code in RELIED_ON):
        raise SystemExit("build: this Pyodide's pyodide.asm.mjs links its exports another way; check tools/linking.py")
    return glue.replace(ORIGINAL, GROWN_ONCE)
