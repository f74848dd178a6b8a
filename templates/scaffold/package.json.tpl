{
  "name": {{name}},
  "version": "0.1.0",
  "private": true,
  "description": {{description}},
  "type": "module",
  "scripts": {
    "build": {{buildCommand}},
    "start": "npm run build && node dist/main.js",
    "test": "vitest run"
  },
  "dependencies": {{dependencies}},
  "devDependencies": {{devDependencies}},
  "overrides": {{overrides}}
}
