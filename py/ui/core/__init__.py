"""The app's model without markup or browser: the state, the action registry, one tap's
step (handler, commit, the saving queued), the effects a change queues, roster events, the
sessions on this device as screens read them. May import session and rules only."""
