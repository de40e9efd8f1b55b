"""Shoes dealt for real: dealing, the Monte Carlo check, counting, and resumable partitioned
runs."""

# The words of the run options, here where the command line reads them without loading
# the dealer's compiled code (see analyzer.runs.dealer and analyzer.runs.counting).
#: When the cut card comes out: the round in progress is the last, or one more is dealt.
LAST_ROUND_RULES = ("cut-card", "one-more")
#: What the true count divides the running count by (see CountJob.true_count_decks).
TRUE_COUNT_DECKS = ("in-shoe", "unseen")
