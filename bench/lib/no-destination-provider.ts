import type { Provider } from '../../src/features/delivery/provider.ts';

/** A provider with no destination: a lead gets no step, so the dispatcher runs nothing beside the load. */
export const NO_DESTINATION_PROVIDER: Provider = {
  name: 'none',
  destinations: [],
  alertAgency: async () => {},
  close: async () => {},
};
