"""One kernel module per paper: ``repro.papers.<slug with '-' replaced by '_'>``."""
