import { describe, expect, it, vi } from 'vitest';
import { isolate } from '../../src/background/actions';
import { useSimulator } from '../simulator/helpers';
import { createFakes } from '../support/background-fakes';

const h = useSimulator();

describe('the recent list is best effort', () => {
  it('an isolation whose tab opened succeeds even when the recent list cannot be written', async () => {
    // Arrange
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { deps, state } = createFakes(h.sim);
    const failing = { ...deps, store: { ...deps.store, addRecent: () => Promise.reject(new Error('storage quota exceeded')) } };

    // Act
    const outcome = await isolate(failing, { link: 'https://evil.example/recent', session: 'standard' });
    if ('ask' in outcome) throw new Error('not asked: the link is not wrapped');

    // Assert
    expect(state.tabs.map((tab) => tab.url)).toEqual([outcome.launchUrl]);
    expect(outcome.context.url).toBe('https://evil.example/recent');
    expect(console.warn).toHaveBeenCalledWith('Isolink could not update the recent contexts list');
  });
});
