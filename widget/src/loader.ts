// The widget loader: replaced by the customer widget issue.
export {};
