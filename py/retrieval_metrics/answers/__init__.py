"""Generated answers against reference answers: the metrics (exact match, token F1, ANLS, edit
similarity), Levenshtein distance, the Answers mode's text formats and its report."""
