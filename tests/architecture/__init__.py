"""Tests of the code's shape: layers, import cycles, purity."""
