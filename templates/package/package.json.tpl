{
  "name": {{name}},
  "version": {{version}},
  "description": {{description}},
  "type": "module",
  "sideEffects": false,
  "exports": {{exports}},
  "files": ["dist", "compiled", "README.md", "CHANGELOG.md"],
  "scripts": {
    "build": "tsc -p tsconfig.json"
  },
  "engines": {
    "node": ">=20.19"
  },
  "contractgen": {{contractgen}}
}
