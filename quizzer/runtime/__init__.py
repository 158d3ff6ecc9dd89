"""The process around big work: the cyclic garbage collector held off (:mod:`.collector`)."""
