from renamer.cli import main

main()
