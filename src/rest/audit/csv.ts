// CSV for spreadsheets: RFC 4180 quoting, CRLF line ends, and no formula injection.
// A cell starting with = + - @ (or a tab or carriage return, which some spreadsheets
// skip before such a character) is prefixed with ' so it is shown as text, never run:
// actors, prompt names and details are written by API callers.
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvRow = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
