export type DbProvider = 'sqlite' | 'postgresql';

export function providerOf(url: string): DbProvider {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgresql' : 'sqlite';
}
