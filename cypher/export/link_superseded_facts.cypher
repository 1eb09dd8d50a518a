// Import: (:Fact)-[:SUPERSEDES]->(:Fact) between imported versions.
// Parameters: $links — list of maps {fact_id, old_id}.
UNWIND $links AS link
MATCH (a:Fact {fact_id: link.fact_id}), (b:Fact {fact_id: link.old_id})
MERGE (a)-[:SUPERSEDES]->(b)
RETURN count(*) AS links
