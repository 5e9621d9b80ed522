// A file with no operations at all.
