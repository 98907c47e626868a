"""The games file: SQLite's promises (an input committed before it is acknowledged), its faults."""
