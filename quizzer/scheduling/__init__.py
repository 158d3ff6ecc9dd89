"""When each card is due: FSRS-6 card states, study days, queues and limits, the review entry.

Pure: every function takes ``now`` and a random generator; nothing reads the clock.
"""
