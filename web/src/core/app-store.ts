import { createStore } from 'jotai';

/** The one jotai store; non-React code (HTTP client, socket) reads and writes it too. */
export const appStore = createStore();
