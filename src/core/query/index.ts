export { compileQuery, countAhead, queryBook, refreshQueryStatistics, type CompiledQuery, type QueryResult, type QueryRow } from './query-book.ts';
export { InvalidCursorError, encodeCursor, decodeCursor, type Cursor } from './cursor.ts';
