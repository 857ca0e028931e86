"""The floor: tables' journals streamed to NATS JetStream, PostgreSQL, the pit view and linked progressives."""
