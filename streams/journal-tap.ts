/**
 * Record every frame that passes, unchanged. The recorder decides what to keep.
 */
import { tap, type MonoTypeOperatorFunction } from 'rxjs';

export function journalTap<T>(record: (value: T) => void): MonoTypeOperatorFunction<T> {
  return tap(record);
}
