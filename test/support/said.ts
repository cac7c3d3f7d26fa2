/** An assertion the background's tests share: what a failure says to the analyst. */
import { expect } from 'vitest';
import { errorText } from '../../src/background/failures';

/** The refusal `act` ends with, as the analyst is told it (errors are data until shown): `expected`'s fields, and its words. */
export async function expectSaid(act: Promise<unknown>, expected: { name: string; message: string; code?: string }): Promise<void> {
  const error: unknown = await act.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  const { message, ...fields } = expected;
  expect(error).toMatchObject(fields);
  expect(errorText(error)).toBe(message);
}
