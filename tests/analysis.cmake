# Tests that need the front end and the analyzer.
foreach(t test_worksheet)
  if(TARGET ${t} AND TARGET tl_analysis)
    target_link_libraries(${t} PRIVATE tl_analysis tl_frontend)
  endif()
endforeach()
