"""tablectl's controller: card vocabulary, evaluators, games, rounds, settlement and the CLI."""
