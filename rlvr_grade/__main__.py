from rlvr_grade.cli import main

main()
