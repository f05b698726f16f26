# scripts/claims/claims.py, the table of the papers' claims against mcb's simulated
# numbers, on crafted paper-scale CSVs with a known answer (every TRA claim
# holds with per-message costs and differs without), an empty directory (NO
# DATA, with the command that makes the data) and the rows of the papers SMPI
# cannot simulate. No MPI.
add_test(NAME claims_table COMMAND ${MCB_SYSTEM_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/claims/check_claims.py
                                   ${PROJECT_SOURCE_DIR}/scripts/claims/claims.py ${CMAKE_CURRENT_BINARY_DIR}/claims)
set_tests_properties(claims_table PROPERTIES LABELS scripts TIMEOUT 60 PASS_REGULAR_EXPRESSION "claims: ok"
                     FAIL_REGULAR_EXPRESSION "FAIL|Traceback")

# docs/claims.md against the committed paper-scale data: its table is the one
# the data gives, and every number its prose quotes from the table (marked
# NUMBER<!--ROW MODEL-->) is in that cell. Fails when the data or the page
# moves without the other (scripts/claims/claims.py --write-doc docs/claims.md), and
# (--complete) when a row has neither its full-model verdict and sensitivity
# mark nor a measured reason why not, or keeps a reason after its data came.
add_test(NAME claims_doc COMMAND ${MCB_SYSTEM_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/claims/claims.py --data
                                 ${PROJECT_SOURCE_DIR}/data/paper-scale --check-doc
                                 ${PROJECT_SOURCE_DIR}/docs/claims.md --complete)
set_tests_properties(claims_doc PROPERTIES LABELS scripts TIMEOUT 120 PASS_REGULAR_EXPRESSION "claims: .*: ok"
                     FAIL_REGULAR_EXPRESSION "Traceback")
