# Script mode helper for kiln_embed_file: INPUT, OUTPUT, SYMBOL.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(LENGTH "${hex}" hexlen)
math(EXPR len "${hexlen} / 2")
file(WRITE "${OUTPUT}"
  "/* Generated from ${INPUT}; do not edit. */\n"
  "const char ${SYMBOL}[] = {${bytes}0x00};\n"
  "const unsigned long ${SYMBOL}_len = ${len};\n")
