// The `chorus` command line: one file per command (start, doctor, config, channels, plugins, message, mcp, …) on commander.
