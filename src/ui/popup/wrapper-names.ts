import { WRAPPER_NAMES, type WrapperId } from '../../fang/ids';

/** "Microsoft Safe Links, Proofpoint URL Defense": wrapping services by name, outermost first. */
export function namesOf(ids: readonly WrapperId[]): string {
  return ids.map((id) => WRAPPER_NAMES[id]).join(', ');
}
