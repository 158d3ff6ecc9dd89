"""Statistics from card states and the review log: what is known, in which language, what is due.

Pure: the caller passes ``now``, the time zone and the day start.
"""
