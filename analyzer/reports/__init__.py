"""What users read: table words in three languages, tables in every format, plots."""
