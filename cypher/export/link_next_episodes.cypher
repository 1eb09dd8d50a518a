// Import: the [:NEXT] time chain between a user's imported episodes.
// Parameters: $links — list of maps {event_id, next}.
UNWIND $links AS link
MATCH (a:Episode {event_id: link.event_id}), (b:Episode {event_id: link.next})
MERGE (a)-[:NEXT]->(b)
RETURN count(*) AS links
