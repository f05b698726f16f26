# (filled in by issue 9)
