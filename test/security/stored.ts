// Data saved before today's validation rules: written straight to the database,
// the way an older promptd (or an upgrade) leaves it.
import type { TestCore as Core } from '../helpers/db.js';

/** Overwrites the text of message `position` of version `number` of prompt `name`. */
export async function overwriteMessageText(core: Core, name: string, number: number, position: number, text: string): Promise<void> {
  const v = await core.db.prisma.promptVersion.findFirstOrThrow({ where: { prompt: { name }, number }, select: { id: true } });
  await core.db.prisma.promptMessage.update({ where: { versionId_position: { versionId: v.id, position } }, data: { text } });
}

export async function overwriteIcons(core: Core, name: string, number: number, icons: unknown[]): Promise<void> {
  const v = await core.db.prisma.promptVersion.findFirstOrThrow({ where: { prompt: { name }, number }, select: { id: true } });
  await core.db.prisma.promptVersion.update({ where: { id: v.id }, data: { icons: JSON.stringify(icons) } });
}

export async function overwriteResourceUri(core: Core, from: string, to: string): Promise<void> {
  await core.db.prisma.resource.update({ where: { uri: from }, data: { uri: to } });
  await core.db.prisma.resourceBinding.updateMany({ where: { uri: from }, data: { uri: to } });
}

export async function renamePrompt(core: Core, from: string, to: string): Promise<void> {
  await core.db.prisma.prompt.update({ where: { name: from }, data: { name: to } });
}
