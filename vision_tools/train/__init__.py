"""Training and held-out evaluation of the learned dice reader (needs torch; not a runtime dependency).

See vision_tools/train/README.md.
"""
