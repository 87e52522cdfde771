// Anchors the shared precompiled header of the examples.
