from rlvr_grade.entry import main

main()
