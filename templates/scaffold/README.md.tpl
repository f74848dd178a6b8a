# {{title}}

A server for {{title}} {{version}}, scaffolded by contractgen from {{source}}. This project is
yours: re-scaffolding only adds handlers, marks stale ones and refreshes the status below.

## Run

```sh
npm install
npm start          # builds, then listens on http://127.0.0.1:{{port}} (PORT, HOST to change)
npm test           # the contract's conformance suite against this app: what fails is still to do
```

## Implement

Each tag of the contract has a module in `src/handlers/`, each operation a handler typed by the
generated `<Operation>Input` and `<Operation>Reply`. A handler that still calls
`notImplemented(input)` answers 501 with the contract's not-implemented problem. Credential checks
go in `src/security.ts`.

## When the contract changes

Run {{scaffoldCommand}} again: it adds handlers for new operations (a new tag gets a new module)
and marks handlers whose operation left the contract `@deprecated`. In CI, {{checkCommand}} exits 1
and lists what is missing or stale.

Existing handlers, imports, helpers and comments are kept byte for byte. A handler whose operation
left the contract is marked `@deprecated` (and no longer type-checks against the handlers
interface): delete it when you are ready.

## Status

<!-- contractgen:status -->
{{status}}
<!-- /contractgen:status -->
