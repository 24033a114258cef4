// The few parts of the extensions API this extension uses (the @types/chrome package would add a
// dependency for a handful of signatures).

declare namespace chrome {
  namespace runtime {
    function openOptionsPage(): Promise<void>;
    const onInstalled: { addListener(callback: (details: { reason: string }) => void): void };
  }
  namespace storage {
    interface StorageArea {
      get(keys: string | string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      clear(): Promise<void>;
    }
    const local: StorageArea;
  }
  namespace tabs {
    interface Tab {
      id?: number;
      url?: string;
      title?: string;
    }
    function query(queryInfo: { active?: boolean; lastFocusedWindow?: boolean; currentWindow?: boolean }): Promise<Tab[]>;
    function get(tabId: number): Promise<Tab>;
  }
}
