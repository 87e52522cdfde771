// Anchors the shared precompiled header of the runtime tests.
