// A generated prompt library for the killed-import test: prompt i has a known number
// of messages and arguments, so a partially written prompt is detectable.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const libName = (i: number) => `lib-${String(i).padStart(5, '0')}`;
export const libShape = (i: number) => ({ messages: 1 + (i % 5), arguments: i % 4 });

export function writeLibrary(dir: string, count: number): void {
  mkdirSync(path.join(dir, 'prompts'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const { messages, arguments: args } = libShape(i);
    const argLines = Array.from({ length: args }, (_, k) => `  - name: a${k}\n    description: argument ${k}\n`).join('');
    const msgLines = Array.from({ length: messages }, (_, k) => `  - role: ${k % 2 ? 'assistant' : 'user'}\n    text: "prompt ${i} message ${k}${args ? ' {{a0}}' : ''}"\n`).join('');
    writeFileSync(
      path.join(dir, 'prompts', `${libName(i)}.yaml`),
      `name: ${libName(i)}\ndescription: generated prompt ${i}\narguments:${args ? `\n${argLines}` : ' []\n'}messages:\n${msgLines}`,
    );
  }
}
