#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx leadgate …` works in a fresh checkout with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
