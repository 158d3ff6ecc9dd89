"""What the quiz's first paint (the home screen, or `quizzer study`'s first card) must not
import, shared by the two start-up import tests."""

#: The review log (its month files, their decoder and cache, the history reader and the
#: compaction that writes them): read for the statistics, written when the store compacts.
REVIEW_LOG = (
    "quizzer.progress.reviewlog",
    "quizzer.progress.monthfile",
    "quizzer.progress.monthcache",
    "quizzer.progress.monthspill",
    "quizzer.progress.logdecoder",
    "quizzer.progress.history",
    "quizzer.progress.compaction",
)
