import type { Command } from 'commander';

export function registerLibrary(program: Command): void {
  void program;
}
