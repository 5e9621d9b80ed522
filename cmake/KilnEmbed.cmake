# kiln_embed_file(OUT_C SYMBOL INPUT): generate OUT_C defining
#   const char SYMBOL[]; const unsigned long SYMBOL_len;
# holding INPUT's bytes (NUL-terminated), regenerated when INPUT changes.
function(kiln_embed_file out_c symbol input)
  add_custom_command(
    OUTPUT ${out_c}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out_c}
            -DSYMBOL=${symbol} -P ${CMAKE_SOURCE_DIR}/cmake/EmbedFileScript.cmake
    DEPENDS ${input} ${CMAKE_SOURCE_DIR}/cmake/EmbedFileScript.cmake
    COMMENT "Embedding ${input}")
endfunction()
