//! asamblea-wire (being written).
