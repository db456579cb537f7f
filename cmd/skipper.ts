#!/usr/bin/env node
// Skipper's entry point: the only place that wires flags -> config -> logger -> store -> provider -> game -> cli.
console.log('skipper: under construction');
