"""Store adapters behind `caseplatform.ports.CaseStore`: SQLite (embedded default) and DynamoDB."""
